"""The o1 agent: profiles, sessions, safety policy, sandboxed execution and the Open Interpreter backend."""
