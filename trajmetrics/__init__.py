"""trajmetrics: process metrics for web-agent runs against human gold paths."""

__version__ = "0.1.0"
