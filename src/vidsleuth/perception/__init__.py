

def quiet_onnxruntime() -> None:
    """onnxruntime's telemetry (a device id and events under ~/.cache/Microsoft) is turned off
    before any session exists (RapidOCR's models, Whisper's VAD): nothing is written outside
    vidsleuth's own folders."""
    try:
        import onnxruntime

        onnxruntime.disable_telemetry_events()
    except (ImportError, AttributeError):  # pragma: no cover - other onnxruntime builds
        pass


def calm_session(holder, threads: int) -> None:
    """``holder.session`` (an onnxruntime session another library built) rebuilt with ``threads``
    intra-op threads that sleep between runs instead of spinning. ORT's workers spin by default
    (``session.intra_op.allow_spinning``): between RapidOCR's many short calls that spin burned
    1.6-1.9x the CPU of the calls themselves on 2 shared cores, time the other stages needed."""
    import onnxruntime as ort

    path = getattr(holder.session, "_model_path", None)
    if not path:  # pragma: no cover - a session built from bytes: left as it is
        return
    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    opts.enable_cpu_mem_arena = False
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.intra_op_num_threads = max(1, threads)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
    holder.session = ort.InferenceSession(path, sess_options=opts, providers=["CPUExecutionProvider"])
