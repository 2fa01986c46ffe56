"""A full disk while a newly arrived file is stored (``received/``): the error said
"已收到的文件和已公布的抽签都已记入账本，不受影响" — but that night's new file was not taken
in (it is still in the inbox, nothing lost).  It says the new file was not taken in yet and
will be once there is room; what was recorded before is unaffected (audit 38)."""
from __future__ import annotations

import datetime as dt
import errno
import os
import shutil

from .common import NOW, copy_sample


def test_a_full_disk_at_intake_says_the_new_file_waits_in_the_inbox(tmp_path, monkeypatch, capsys):
    from pipeline import store
    from pipeline.runcmd import run_command

    folder = copy_sample("t2016-poker", tmp_path)
    later = next(p for p in sorted((folder / "inbox").iterdir()) if p.suffix == ".eml")
    held = tmp_path / later.name
    shutil.move(later, held)
    out = tmp_path / "out"
    assert run_command(folder, out, dt.datetime.fromisoformat(NOW), pdf=False) in (0, 1)
    capsys.readouterr()
    shutil.move(held, later)                   # a new file arrives
    real = store.atomic_write_bytes

    def full(path, data, *a, **k):
        if "received" in os.fspath(path):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.fspath(path))
        return real(path, data, *a, **k)

    monkeypatch.setattr(store, "atomic_write_bytes", full)
    code = run_command(folder, out, dt.datetime.fromisoformat(NOW), pdf=False)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "磁盘已满" in err, err
    assert "都已记入账本" not in err, err
    assert "新到的文件" in err and "还没有收下" in err and "仍在收件箱" in err, err
    assert "此前已记入账本的文件和已公布的抽签不受影响" in err, err
