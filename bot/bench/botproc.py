"""Entry point of the bot process the benchmark measures: quizbot or the bare baseline.

Run as `python -m bot.bench.botproc --kind quizbot --api-base-url URL ...`. It prints one JSON line
when it polls (with its start-up timings) and one when it has stopped; SIGTERM stops it cleanly,
so the database is closed and every committed answer is on disk before the benchmark reads it.
"""

from __future__ import annotations

import time

T_PROCESS = time.time()  # before the heavy imports: start-up is timed from here

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402


def _say(**event: object) -> None:
    print(json.dumps(event), flush=True)


async def _serve(args: argparse.Namespace) -> None:
    timings: dict[str, float] = {}
    if args.kind == "baseline":
        from bot.bench.baseline import build

        app = build(
            args.token,
            args.api_base_url,
            rate_limit=args.rate_limit,
            concurrency=args.concurrency,
            transport=args.transport or "httpx",
        )
        timings["imports"] = time.time() - T_PROCESS
        t0 = time.time()
        await app.initialize()
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=10)
        timings["start"] = time.time() - t0
        stop_fn = app.stop
    else:
        from bot.compose import build_services
        from bot.content import load_catalog
        from bot.core.bursts import BURST
        from bot.tg.app import QuizBot
        from bot.tg.options import BotOptions, service_inputs

        timings["imports"] = time.time() - T_PROCESS
        t0 = time.time()
        # As `quizbot run` does: the checks' clean result cached beside the database.
        catalog = load_catalog(
            Path(args.content), cache_dir=Path(args.db).parent if args.db else None
        )
        timings["load_catalog"] = time.time() - t0
        t1 = time.time()
        options = BotOptions(
            token=args.token,
            db_path=Path(args.db),
            catalog=catalog,
            base_url=args.api_base_url,
            rate_limit=args.rate_limit,
            # A private chat's burst hold (bot/core/bursts.py) answers the backlog the bot's own
            # per-chat pacing builds. Without the limiter (the closed-loop runs) there is none, and
            # the bench's learners send /start and /stop at machine speed: they would be held,
            # and the run would measure the hold, not the bot. With it, as in production, a
            # learner waiting for each reply is paced by the replies and never held.
            sender_burst=BURST if args.rate_limit else None,
            **({"concurrent_updates": args.concurrency} if args.concurrency else {}),
            **({"send_rate": args.paced_limiter} if args.paced_limiter else {}),
            **({"transport": args.transport} if args.transport else {}),
        )
        bot = QuizBot(options, build_services(*service_inputs(options)))  # composed here
        if args.webhook_port:  # updates POSTed by the bench's bridge, as to the workers
            await bot.start(polling=False)
            await bot.serve_webhook(args.webhook_secret, "127.0.0.1", args.webhook_port)
        else:
            await bot.start()
        timings["start"] = time.time() - t1
        stop_fn = bot.stop
    _say(event="ready", pid=os.getpid(), t_process=T_PROCESS, t_begin=t0, **timings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    if args.kind == "baseline":
        if app.updater is not None:
            await app.updater.stop()
        await stop_fn()
        await app.shutdown()
    else:
        await stop_fn()
    _say(event="stopped")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.botproc")
    parser.add_argument("--kind", choices=("quizbot", "baseline"), required=True)
    parser.add_argument("--api-base-url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--db", default="")
    parser.add_argument("--content", default="")
    parser.add_argument("--rate-limit", action="store_true")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=0,
        help="concurrent updates and HTTP connections (default: quizbot's)",
    )
    parser.add_argument(
        "--paced-limiter",
        type=float,
        default=0,
        help="experiment: the limiter's pace, sends and edits/s (default BotOptions.send_rate)",
    )
    parser.add_argument(
        "--transport",
        choices=("aiohttp", "httpx"),
        default="",
        help="HTTP stack (default: quizbot's own, aiohttp; the baseline's stock PTB, httpx)",
    )
    parser.add_argument(
        "--uvloop", action="store_true", help="experiment: run on uvloop's event loop"
    )
    parser.add_argument(
        "--webhook-port", type=int, default=0, help="quizbot: take updates on this port"
    )
    parser.add_argument("--webhook-secret", default="", help="... with this secret")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="bot: %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    if args.uvloop:
        import uvloop  # type: ignore[import-not-found,unused-ignore]  # experiment, not a dependency

        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(_serve(args))
    else:
        asyncio.run(_serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
