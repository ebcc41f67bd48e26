"""Tests of the o1 Home Assistant integration."""
