"""Use cases: each owns a whole tap or command, from plain values to a typed outcome.

They join the pure core (rules) and the store (what is durable), and never import the Telegram
adapter: `bot/tg` parses an update, calls one use case, and renders what it returns.
"""
