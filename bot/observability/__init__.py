"""What operators watch: Prometheus metrics (metrics.py), their gauges of the moment
(gauges.py) and the `/metrics` page (exposition.py)."""
