"""The schema layer agrees with the data types it reads into."""

from __future__ import annotations


def test_endpoint_schema_and_dataclass_declare_the_same_fields():
    """``[models.NAME]`` is declared twice (the pydantic reader in schemas, the frozen Endpoint in
    models.config, which sits above it): both must list the same keys with the same defaults."""
    import dataclasses

    from vidsleuth.models.config import Endpoint
    from vidsleuth.schemas.data import EndpointConfig

    dc = {f.name: f.default for f in dataclasses.fields(Endpoint) if f.name not in ("name", "options")}
    schema = {k: f.default for k, f in EndpointConfig.model_fields.items() if k != "frames"}
    assert schema.keys() == dc.keys()
    assert {k: v for k, v in schema.items() if k != "backend"} == {k: v for k, v in dc.items() if k != "backend"}
