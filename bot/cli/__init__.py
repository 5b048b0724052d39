"""Every command-line entry point (`quizbot run`, `worker`, `web`, `content`, `export`,
`forget`, `migrate-db`, `review`): the top floor, the only place that builds a whole bot from
options. Library packages never import this package (tests/test_layers.py)."""
