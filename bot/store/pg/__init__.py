"""PostgreSQL: migrations, the shared work queue, timers and send pacing for several workers."""
