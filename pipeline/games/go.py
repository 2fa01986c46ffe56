"""围棋 Go: one game per match; black moves first (``Match.first`` is black).

Result 甲胜/乙胜/和棋/弃权 with a reason (中盘胜, 数子胜, 超时 …).  Default points 2/1/0;
Swiss tiebreaks by default (R2015-F1).
"""
from __future__ import annotations

from . import GAMES
from .headtohead import HeadToHeadGame

GO = HeadToHeadGame(
    id="go",
    title="围棋",
    win_reasons=("中盘胜", "数子胜", "认输", "超时", "违例判负", "其他"),
    draw_reasons=("和棋", "三劫循环", "其他"),
    first_note="执黑先行",
    colours=("黑", "白"),       # 黑中盘胜 → 甲胜 (甲方执黑: R2015-F1)
    letters=("B", "W"),        # B+R, W+2.5
)
GAMES.register("go", "围棋", "圍棋", "weiqi")(GO)
