"""The referee core: the service that validates and applies every action under the table's lock and records it in
one transaction (service.py), a step's messages (steps.py), a moderator's steps (moderation.py), disputes
(disputes.py), who may look behind a table's screen (oversight.py: not a moderator seated there; every look
logged; whether a user is seated at a table is answered by seated.py alone), time control (timecontrol.py, the rules; timekeeper.py, the keeper), the outbox's delivery worker
(delivery.py) and who may see what of a message it delivers (visibility.py), the record's export and verification (record.py), the move list (moves.py) and typed actions
(typed.py); free text is cleaned by bot/engine/free_text.py.

May import storage, rendering, the engines, bot.process and bot.i18n; nothing of tournaments or the front ends
above it (docs/architecture.md).  Within the package: service imports timekeeper and steps, and moderation,
disputes, oversight, seated and record import the service, never the other way round.
"""
