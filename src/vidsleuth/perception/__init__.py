

def quiet_onnxruntime() -> None:
    """onnxruntime's telemetry (a device id and events under ~/.cache/Microsoft) is turned off
    before any session exists (RapidOCR's models, Whisper's VAD): nothing is written outside
    vidsleuth's own folders."""
    try:
        import onnxruntime

        onnxruntime.disable_telemetry_events()
    except (ImportError, AttributeError):  # pragma: no cover - other onnxruntime builds
        pass
