# The two commands a newcomer runs (see README.md). Both bootstrap the environments first (cached).
.PHONY: demo test bootstrap test-server test-ha test-esphome test-typing lint

AUDIO ?= tests/fixtures/what_is_two_plus_two.wav

demo:
	script/demo "$(AUDIO)"

test:
	script/test

bootstrap:
	script/bootstrap

test-server:
	script/test server

test-ha:
	script/test ha

test-esphome:
	script/test esphome

test-typing:
	script/test typing

lint:
	script/lint
