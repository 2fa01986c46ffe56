"""象棋 Xiangqi: one game per match (R2020-F2), red moves first (R2011-F3).

Result 甲胜/乙胜/和棋/弃权 with a reason from R2011-F3's list (将死, 困毙, 认输 …; draws by
agreement or perpetual repetition).  Default points 2/1/0; the event may set 3/1/0 (R2011-F1).
``Match.first`` says who holds red (the runner writes "甲方执红").
"""
from __future__ import annotations

from . import GAMES
from .headtohead import HeadToHeadGame

XIANGQI = HeadToHeadGame(
    id="xiangqi",
    title="中国象棋",
    win_reasons=("将死", "困毙", "认输", "超时", "违例判负", "违纪判负", "其他"),
    draw_reasons=("议和", "循环不变作和", "双方无胜可能", "其他"),
    first_note="执红先行",
    colours=("红", "黑"),       # 红胜 → 甲胜, 黑胜 → 乙胜 (甲方执红)
)
GAMES.register("xiangqi", "象棋", "中国象棋", "中國象棋")(XIANGQI)
