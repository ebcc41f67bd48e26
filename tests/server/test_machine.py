"""Questions about the machine (free disk space, CPU cores) answered within the sandbox rules.

The system message steers the model to measure its own folder ('.'), which the classifier allows; facts such
as the CPU count are read-only even in modules that are otherwise process control. The real sandbox runs the
code; the scripted LLM writes what Qwen2.5-Coder wrote in the agent benchmark.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from o1_server.agent import policy
from tests.support.scripted_llm import ScriptedLLM


def code(src: str) -> str:
    return f"```python\n{src}\n```"


async def test_free_disk_space_is_measured_in_the_conversation_folder(make_agent, llm: ScriptedLLM) -> None:
    llm.script(code("import shutil\nprint(f\"Free disk space: {shutil.disk_usage('.').free / 1e9:.1f} GB\")"),
               "There you go.")
    reply = await make_agent().ask("how much free disk space is there", "m-disk")
    [block] = reply.code_blocks
    assert block.decision == "allow" and block.exit_status == 0, block
    reported = float(re.search(r"([\d.]+) GB", block.output).group(1))
    assert abs(reported - shutil.disk_usage(Path.cwd()).free / 1e9) < 5  # same disk, give or take other writers
    system = llm.requests[0]["messages"][0]
    assert system["role"] == "system" and "disk_usage('.')" in system["content"]


async def test_cpu_cores_are_a_read_only_fact(make_agent, llm: ScriptedLLM) -> None:
    llm.script(code('import os\nprint("This machine has", os.cpu_count(), "CPU cores.")'),
               "Done.")
    reply = await make_agent().ask("how many cpu cores does this machine have", "m-cpu")
    [block] = reply.code_blocks
    assert block.decision == "allow" and block.category == ["read_only"], block
    assert block.output.strip() == f"This machine has {os.cpu_count()} CPU cores."


def test_the_rest_of_multiprocessing_and_the_root_stay_refused(tmp_path: Path) -> None:
    for src in ("import multiprocessing\nmultiprocessing.Process(target=print).start()",
                "import multiprocessing as mp\np = mp\np.Process(target=print).start()",
                "import multiprocessing\nf = getattr(multiprocessing, 'Pro' + 'cess')",
                "from multiprocessing import Pool",
                "import multiprocessing\nmultiprocessing.cpu_count.__globals__['os'].system('id')"):
        assert "process_control" in policy.classify("python", src, tmp_path).categories, src
    assert policy.classify("shell", "df -h .", tmp_path).categories == {"read_only"}
