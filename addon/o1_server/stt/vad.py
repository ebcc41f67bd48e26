"""Streaming voice activity detection: faster-whisper's bundled Silero model, one state per stream.

Only the model and its state; the decisions taken from its probabilities are in :mod:`.utterance`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


class _StreamingVad:
    """Silero voice activity detection (faster-whisper's bundled ONNX model) over a growing stream.

    The model is stateful (an LSTM): :meth:`new_state` gives one state per stream and :meth:`process`
    feeds whole 512-sample windows (16 kHz float32) in order, returning one speech probability per window.
    Feeding a stream in pieces gives the same probabilities as feeding it at once.
    """

    _CONTEXT = 64  # samples of the previous window the model sees before each window

    def __init__(self) -> None:
        import onnxruntime
        from faster_whisper.utils import get_assets_path

        options = onnxruntime.SessionOptions()
        options.inter_op_num_threads = 1
        options.intra_op_num_threads = 1
        options.enable_cpu_mem_arena = False
        options.log_severity_level = 4
        path = Path(get_assets_path()) / "silero_vad_v6.onnx"
        self._session = onnxruntime.InferenceSession(
            str(path), providers=["CPUExecutionProvider"], sess_options=options
        )

    @staticmethod
    def new_state() -> dict[str, np.ndarray]:
        return {
            "h": np.zeros((1, 1, 128), np.float32),
            "c": np.zeros((1, 1, 128), np.float32),
            "context": np.zeros(_StreamingVad._CONTEXT, np.float32),
        }

    def process(self, windows: np.ndarray, state: dict[str, np.ndarray]) -> np.ndarray:
        """Speech probabilities (shape ``(k,)``) of ``windows`` (shape ``(k, 512)``, float32)."""
        if not len(windows):
            return np.zeros(0, np.float32)
        previous = np.concatenate([state["context"][None, :], windows[:-1, -self._CONTEXT :]], axis=0)
        batch = np.concatenate([previous, windows], axis=1).astype(np.float32)
        probs, state["h"], state["c"] = self._session.run(None, {"input": batch, "h": state["h"], "c": state["c"]})
        state["context"] = windows[-1, -self._CONTEXT :].copy()
        return np.asarray(probs, dtype=np.float32).reshape(-1)
