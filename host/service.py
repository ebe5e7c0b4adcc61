"""The game service: lobby, seats, the per-game lock and the action pipeline
(validate -> apply -> commit -> AI turns -> render), without any Discord import.

Every method returns data (``Outcome``/``PrivateView``) that the cogs turn into Discord calls, or raises
``GameError`` with a message for the person who asked.

:class:`GameService` is assembled from one module per concern, each a mixin of
:class:`host.service_core.ServiceCore` (which holds the states, locks and game lookups, and declares what one
concern uses of another):

=============================  ==========================================================================
``host/service_core.py``       game rows as a person may see them, live states, a seat's view and choices
``host/service_lobby.py``      opening (and rematches), joining, leaving, starting; ends from outside play
``host/service_moves.py``      a click or a typed move applied, AI seats and auto-passes, choice panels
``host/service_undo.py``       Undo within a turn (host/undo.py: the log's side), who may take back
``host/service_boards.py``     the board, DMs and pictures after a move; a player's own hand; the status
``host/service_queries.py``    ``/game log`` pages and reminders
``host/service_settings.py``   a person's and a server's settings, the stand-in AI's level
``host/turn_clocks.py``        turn clocks: deadlines, warnings, timeouts, the AI standing in, forfeits
``host/clock_commands.py``     what players do with clocks (extends turn_clocks.py): resign, claim, give
                               time, go away
=============================  ==========================================================================
"""

from __future__ import annotations

from host.asker import Asker
from host.clock_commands import ClockCommands
from host.errors import GameError, StaleBoard
from host.seatwork import MAX_CHOICES, choices_digest
from host.service_boards import Boards
from host.service_core import AI_LEVEL, MAX_ID, MAX_VARIANTS, PROMPT_KEYS, RETRY_SLOW, Slow
from host.service_lobby import Lobby, Rematch
from host.service_moves import MAX_MOVE_TEXT, Moves
from host.service_queries import LOG_CHUNK, LOG_PAGE_CHARS, LOG_PAGE_MOVES, REMIND_BATCH, History, LogPage
from host.service_settings import SERVER_SETTINGS, Settings
from host.service_undo import UNDO_CHUNK, Undo

# (Asker, GameError, StaleBoard, MAX_CHOICES, choices_digest and the constants: re-exported for the tests that
# name them here; the code imports them from the modules defining them)
__all__ = ["AI_LEVEL", "LOG_CHUNK", "LOG_PAGE_CHARS", "LOG_PAGE_MOVES", "MAX_CHOICES", "MAX_ID", "MAX_MOVE_TEXT",
           "MAX_VARIANTS", "PROMPT_KEYS", "REMIND_BATCH", "RETRY_SLOW", "SERVER_SETTINGS", "UNDO_CHUNK", "Asker", "GameError",
           "GameService", "LogPage", "Rematch", "Slow", "StaleBoard", "choices_digest"]


class GameService(Lobby, Moves, Undo, Boards, History, Settings, ClockCommands):
    """Owns engine states between Discord and the store. One asyncio lock per game serialises its actions."""
