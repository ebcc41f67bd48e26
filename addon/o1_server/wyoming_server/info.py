"""The ``info`` this server answers ``describe`` with: one ``asr``, one ``tts`` and one ``handle`` program.

Home Assistant's ``wyoming`` integration creates an stt, a tts and a conversation entity from these three
programs. Only the description; serving the programs is :mod:`.handler`'s.
"""

from __future__ import annotations

from importlib import metadata

from wyoming.info import (
    AsrModel,
    AsrProgram,
    Attribution,
    HandleModel,
    HandleProgram,
    Info,
    TtsProgram,
)

from ..stt import SpeechToText
from ..tts import TextToSpeech

ASR_PROGRAM = "o1 faster-whisper"
TTS_PROGRAM = "o1 piper"
# Home Assistant's wyoming integration names its conversation agent after the handle program: the agent
# picker shows it beside the o1 integration's agents ("o1 default", "o1 home"...), which have the home context.
HANDLE_PROGRAM = "o1 (Wyoming, no home access)"
HANDLE_DESCRIPTION = (
    "o1 agent over Wyoming: the server's default profile, answering by writing and running code with Open "
    "Interpreter, without Home Assistant's entities or areas (the o1 integration's agents have them)"
)


def _package_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _language_family(code: str) -> str:
    return code.replace("_", "-").split("-")[0].lower()


def build_info(
    stt: SpeechToText,
    tts: TextToSpeech,
    version: str,
    *,
    handle_languages: list[str] | None = None,
) -> Info:
    """Describe this server: one ``asr``, one ``tts`` and one ``handle`` program, all installed.

    Args:
        stt: speech-to-text; its model name and languages (exact once loaded) are advertised.
        tts: text-to-speech; its voices are advertised.
        version: o1 server version, advertised on the handle program.
        handle_languages: languages of the agent (HA only offers the conversation entity for these);
            defaults to the language family of the TTS voice (``"en"`` for en_US-joe-medium), since the
            answers are spoken with it.
    """
    if handle_languages is None:
        handle_languages = sorted({_language_family(v.languages[0]) for v in tts.voices() if v.languages})
    whisper_attribution = Attribution(name="OpenAI", url="https://github.com/openai/whisper")
    asr = AsrProgram(
        name=ASR_PROGRAM,
        description="o1 speech-to-text (faster-whisper)",
        attribution=Attribution(name="SYSTRAN", url="https://github.com/SYSTRAN/faster-whisper"),
        installed=True,
        version=_package_version("faster-whisper"),
        models=[
            AsrModel(
                name=stt.model_name,
                description=f"Whisper {stt.model_name} (CTranslate2)",
                attribution=whisper_attribution,
                installed=True,
                version=None,
                languages=stt.languages,
            )
        ],
        supports_transcript_streaming=stt.streaming,
        requires_external_vad=True,
    )
    tts_program = TtsProgram(
        name=TTS_PROGRAM,
        description="o1 text-to-speech (piper)",
        attribution=Attribution(name="rhasspy", url="https://github.com/rhasspy/piper"),
        installed=True,
        version=_package_version("piper-tts"),
        voices=tts.voices(),
        supports_synthesize_streaming=True,
    )
    o1_attribution = Attribution(name="Open Interpreter", url="https://github.com/OpenInterpreter/open-interpreter")
    handle = HandleProgram(
        name=HANDLE_PROGRAM,
        description=HANDLE_DESCRIPTION,
        attribution=o1_attribution,
        installed=True,
        version=version,
        models=[
            HandleModel(
                name=HANDLE_PROGRAM,
                description=HANDLE_DESCRIPTION,
                attribution=o1_attribution,
                installed=True,
                version=version,
                languages=list(handle_languages),
            )
        ],
        supports_handled_streaming=False,
        supports_home_control=False,
    )
    return Info(asr=[asr], tts=[tts_program], handle=[handle])
