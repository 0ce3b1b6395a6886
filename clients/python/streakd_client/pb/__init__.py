"""Protobuf stubs generated from proto/streak/v1 by scripts/generate-python.sh. Do not edit."""
