"""How the process is set up: its settings (config.py: config.yaml and the environment) and its garbage-collector
policy (gc_policy.py, docs/performance.md).  Read by the referee, Discord and the terminal; imports only
bot.i18n (docs/architecture.md).  The entry points themselves are ``python -m bot`` (bot/terminal/cli.py) and
its ``run`` command (bot/discord/client.py)."""
