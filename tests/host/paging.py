"""What the page-fault tests (test_settled_heap, test_warm_pictures) need of the machine: glibc's malloc (its
``mallopt`` is what they test) and ordinary 4 KiB pages for a new block. Where the kernel gives every mapping
transparent huge pages (``enabled`` set to ``always``; Debian's default is ``madvise``) a 6 MB canvas faults in
three pieces, and a count of faults no longer tells fresh memory from memory kept."""

from __future__ import annotations

import platform
from pathlib import Path

import pytest

THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def _huge_pages_always() -> bool:
    try:
        return "[always]" in THP.read_text()
    except OSError:
        return False


counts_page_faults = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc" or _huge_pages_always(),
    reason="counts 4 KiB page faults of glibc's malloc (not glibc, or transparent huge pages always on)")
