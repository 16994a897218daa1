# What a running unit reports about itself: heap, I2C traffic, key timing, the probe's peaks.
# Every bench that measures a unit asks through this.


def metrics(unit):
    """Ask a unit for heap, I2C and key timing figures (gc.collect() first)."""
    c = unit.wait(lambda c: True, 10, "connection")
    c.metrics = None
    c.send(b"M")
    c = unit.wait(lambda c: c.metrics is not None, 10, "metrics")
    return dict(kv.split("=") for kv in c.metrics.split())


def int_metrics(unit):
    """metrics(), every figure an int."""
    return {k: int(v) for k, v in metrics(unit).items()}
