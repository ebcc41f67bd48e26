"""Text-to-speech cleaning for any text (o1_server.agent.speech_cleaning.voice): what piper is handed.

Home Assistant hands our text-to-speech other agents' markdown and announcements unchanged, and wyoming-piper
passes such text to piper as it is: "Buy **eggs** today." was heard as "asterisk asterisk", bullets as
"asterisk milk", emoji by their Unicode names ("white heavy check mark"), "kWh" as "K double-u H", "°C" as
"degrees C", "14:00" as "fourteen zero zero" and a URL letter by letter (espeak-ng's phonemes, checked with the
bundled voice). The table states, for each odd input, the exact text our server hands to piper instead; the
last tests send some of them through the real piper voice over real Wyoming TCP and read them back with the
real faster-whisper model.
"""

from __future__ import annotations

import array

import re

import pytest
from hypothesis import given, settings
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop

from o1_server.agent.speech_cleaning.symbols import _symbols
from o1_server.agent.speech_cleaning.voice import VoiceText, for_voice
from o1_server.tts import TextToSpeech
from tests.server import test_wyoming
from tests.server.test_speech_cleaning import markdown_reply
from tests.server.test_wyoming import Client, collect_audio, has_words

# The Wyoming server tests' fixtures: a real server on 127.0.0.1 and a client connected to it.
agent, server, client = test_wyoming.agent, test_wyoming.server, test_wyoming.client

# (language, text in, text handed to piper)
TABLE = [
    ('en', 'Buy **eggs** today.',
     'Buy eggs today.'),
    ('en', 'It is *not* raining, it is __really__ _sunny_.',
     'It is not raining, it is really sunny.'),
    ('en', 'The ~~old~~ new plan.',
     'The old new plan.'),
    ('en', '***Very*** important',
     'Very important'),
    ('en', '# Weather report\nSunny all day',
     'Weather report.\nSunny all day'),
    ('en', 'Title\n=====\nBody text.',
     'Title.\nBody text.'),
    ('en', '- milk\n- eggs\n- bread',
     'milk, eggs and bread.'),
    ('en', 'Shopping list:\n\n* Milk\n* Eggs',
     'Shopping list:\nMilk and Eggs.'),
    ('en', '- Turn off the lights in the kitchen, please.\n- Lock the door',
     'Turn off the lights in the kitchen, please.\nLock the door.'),
    ('en', '1. Preheat the oven\n2. Mix the flour\n3. Bake',
     '1. Preheat the oven.\n2. Mix the flour.\n3. Bake.'),
    ('en', '- [x] Done task\n- [ ] Open task',
     'Done task, yes.\nOpen task, no.'),
    ('en', '> Note: the door is open.',
     'Note: the door is open.'),
    ('en', 'See [the docs](https://example.com/docs).',
     'See the docs.'),
    ('en', 'More at https://www.home-assistant.io/integrations/wyoming/.',
     'More at home-assistant.io.'),
    ('en', 'Go to <https://example.org/a?b=c>',
     'Go to example.org'),
    ('en', '![a cat](cat.png) Look!',
     'a cat Look!'),
    ('en', '| Room | Temp |\n|---|---|\n| Kitchen | 21 °C |\n| Bath | 23.5 °C |',
     'Room: Kitchen, Temp: 21 degrees Celsius.\nRoom: Bath, Temp: 23.5 degrees Celsius.'),
    ('en', "Run this:\n```python\nprint('hi')\n```\nThen wait.",
     'Run this:\nA code block.\nThen wait.'),
    ('en', '```\n```',
     ''),
    ('en', 'Use `ls` on `config.yaml`, then `x = f(1)`.',
     'Use ls on config.yaml, then x f 1.'),
    ('en', '✅ Lights off\n❌ Door locked',
     'yes, Lights off\nno, Door locked'),
    ('en', 'Good morning ☀️! Have fun 🎉🎉',
     'Good morning! Have fun'),
    ('en', 'Thumbs up 👍🏽 from 🇩🇪, press 1️⃣',
     'Thumbs up from, press 1'),
    ('en', '💡',
     ''),
    ('en', 'It is 21.5 °C inside and 70°F outside.',
     'It is 21.5 degrees Celsius inside and 70 degrees Fahrenheit outside.'),
    ('en', 'Used 3 kWh today, 1 kWh yesterday.',
     'Used 3 kilowatt hours today, 1 kilowatt hour yesterday.'),
    ('en', 'Wind 50 km/h, humidity 45%, 230 V at 60 W.',
     'Wind 50 kilometers per hour, humidity 45 percent, 230 volts at 60 watts.'),
    ('en', 'Pressure 1013 hPa, 400 ppm CO2.',
     'Pressure 1013 hectopascals, 400 parts per million CO2.'),
    ('en', 'The timer ends at 14:30, alarm at 7:05, lunch at 12:00.',
     "The timer ends at 14 30, alarm at 7 oh 5, lunch at 12 o'clock."),
    ('en', 'Due 2026-03-05 or 05.03.2026 or 3/5/2026.',
     'Due March 5, 2026 or March 5, 2026 or March 5, 2026.'),
    ('en', '5 * 3 = 15 and ~20 left.',
     '5 times 3 = 15 and about 20 left.'),
    ('en', 'I do **not** know 🤷.',
     'I do not know.'),
    ('en', 'Room&nbsp;1 &amp; 2<br>next line',
     'Room 1 & 2\nnext line'),
    ('en', 'snake_case_name and #tag',
     'snake case name and tag'),
    ('de', 'Heute **21 °C**, morgen 3 kWh.',
     'Heute 21 Grad Celsius, morgen 3 Kilowattstunden.'),
    ('de', 'Der Termin ist um 14:30 Uhr am 05.03.2026.',
     'Der Termin ist um 14 Uhr 30 am 5. März 2026.'),
    ('de', '- Milch\n- Eier\n- Brot',
     'Milch, Eier und Brot.'),
    ('de', 'Es ist **nicht** kalt ❌, 1 kWh und 50 km/h.',
     'Es ist nicht kalt nein, 1 Kilowattstunde und 50 Kilometer pro Stunde.'),
    ('de', 'Siehe https://www.tagesschau.de/wetter/ für mehr.',
     'Siehe tagesschau.de für mehr.'),
    ('de', 'Wecker um 7:00.',
     'Wecker um 7 Uhr.'),

]


@pytest.mark.parametrize(("language", "text", "said"), TABLE)
def test_what_piper_is_handed(language: str, text: str, said: str) -> None:
    assert for_voice(text, language) == said


def normal(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("language", "text", "said"), TABLE)
def test_a_stream_cut_anywhere_says_the_same(language: str, text: str, said: str) -> None:
    """synthesize-chunk pieces may cut markup anywhere ("**eg" + "gs**"): the words said are the same."""
    for size in (1, 2, 3, 7):
        stream = VoiceText(language)
        out = "".join(stream.feed(text[i : i + size]) for i in range(0, len(text), size)) + stream.finish()
        assert normal(out) == normal(said), (size, out)


def test_a_stream_speaks_a_sentence_before_the_text_ends() -> None:
    stream = VoiceText("en")
    assert stream.feed("Buy **eg") == ""  # the bold may close later: held
    assert stream.feed("gs** today. And") == "Buy eggs today. "
    assert stream.feed(" then\n```py\nprint(1)") == "And then\n"
    assert stream.feed("\nprint(2)") == ""  # inside a code fence: held until it closes
    assert stream.feed("\n```\nDone.") == "A code block.\n"
    assert stream.finish() == "Done."


UNIT_WORDS = {symbol.lower() for symbol in _symbols()}


@settings(max_examples=200, deadline=None)
@given(markdown_reply())
def test_every_word_of_markdown_is_said_and_no_mark(reply: tuple[str, list[str]]) -> None:
    text, words = reply
    said = for_voice(text)
    assert not re.search(r"\*|__|~~|`|</?[a-z]+[ >/]|\]\(|^#|\|", said, re.M), (text, said)
    assert "hidden_code" not in said and "print" not in said
    spoken = re.findall(r"[A-Za-z0-9]+", said)
    for word in words:
        assert word in spoken or word.lower() in UNIT_WORDS, (word, text, said)


class RecordingTTS(TextToSpeech):
    """The real text-to-speech whose piper step records the text it is handed (no audio is made)."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: list[str] = []

    def _synthesize_piece(self, voice, text, options, speaker_id) -> bytes:
        self.handed.append(text)
        return b"\0\0"


async def test_the_speech_stream_hands_piper_the_cleaned_text() -> None:
    tts = RecordingTTS()
    audio = [chunk async for chunk in tts.synthesize("# Shopping\n- milk\n- eggs\n\nIt is 21 °C ✅.")]
    assert audio and tts.handed == ["Shopping.", "milk and eggs.", "It is 21 degrees Celsius yes."]
    tts.handed.clear()
    stream = tts.open()
    for piece in ("Buy **eg", "gs** at ", "14:", "30 🥚."):
        stream.feed(piece)
    stream.end()
    _ = [chunk async for chunk in stream.audio()]
    assert " ".join(tts.handed) == "Buy eggs at 14 30."
    tts.close()


async def test_bold_words_are_heard_through_piper_over_wyoming(client: Client, stt) -> None:
    await client.send(Synthesize(text="Please buy **fresh bread** today. 🎉").event())
    audio, start = collect_audio(await client.read_until("audio-stop"))
    heard = await stt.transcribe(audio, start.rate, start.width, start.channels)
    assert has_words(heard, ("fresh",), ("bread",), ("today",)), heard
    assert "asterisk" not in heard.lower() and "popper" not in heard.lower(), heard


def split_at_pauses(audio: bytes, rate: int, width: int, pause: float = 0.25) -> list[bytes]:
    """16-bit mono audio cut where it is silent (|sample| < 300) for ``pause`` seconds or more."""
    assert width == 2
    samples = array.array("h", audio)
    parts, begin, quiet = [], 0, 0
    for i, sample in enumerate(samples):
        quiet = quiet + 1 if abs(sample) < 300 else 0
        if quiet == int(pause * rate) and i - quiet > begin:
            parts.append(samples[begin : i - quiet + 1].tobytes())
            begin = i
    parts.append(samples[begin:].tobytes())
    return [p for p in parts if len(p) > rate * width * 0.2]  # not a click or a breath


async def test_markup_cut_across_synthesize_chunks_is_heard_as_words(client: Client, stt) -> None:
    pieces = ["- Turn off the **kit", "chen** light\n", "- It uses 3 kW", "h ✅\n\nSee https://exa", "mple.com/x."]
    await client.send(SynthesizeStart().event(), *(SynthesizeChunk(text=p).event() for p in pieces),
                      SynthesizeStop().event())
    events = await client.read_until("synthesize-stopped")
    audio, start = collect_audio(events[:-1])
    # Each sentence on its own: tiny.en given the whole reply sometimes stops after the first pause.
    heard = " ".join([await stt.transcribe(part, start.rate, start.width, start.channels)
                      for part in split_at_pauses(audio, start.rate, start.width)])
    assert has_words(heard, ("kitchen",), ("kilowatt", "kilowatts"), ("example",)), heard
    assert "asterisk" not in heard.lower() and "slash" not in heard.lower(), heard
    await client.ping()


async def test_a_text_of_emoji_only_has_nothing_to_say(client: Client) -> None:
    await client.send(Synthesize(text="💡🎉").event())
    await client.expect_error("invalid_text")
    await client.ping()
