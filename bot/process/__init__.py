"""How the process is set up: its settings (config.py: config.yaml and the environment), its garbage-collector
policy (gc_policy.py, docs/performance.md) and the bounded cache its layers keep what they drew in (lru.py).
Read by the referee, Discord and the terminal; imports only bot.i18n (docs/architecture.md).  The entry points
themselves are ``python -m bot`` (bot/terminal/cli.py) and its ``run`` command (bot/discord/client.py)."""
