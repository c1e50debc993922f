"""The in-hand rules engine: pure Python (standard library + phevaluator), no Django.

See README.md in this folder for what's where and the rule ids implemented.
"""

from .actions import Action, Ruling
from .errors import (
    DecisionRequired,
    EngineError,
    HandOver,
    IllegalAction,
    InvalidAmount,
    InvalidCards,
    InvalidSetup,
    UnknownSeat,
)
from .hand import Hand
from .pots import Pot, build_pots, split_amount
from .settings import EngineSettings
from .showdown import HandResult, PotAward
from .table import ExtraPost, SeatStack, TableSetup

__all__ = [
    "Action",
    "DecisionRequired",
    "EngineError",
    "EngineSettings",
    "ExtraPost",
    "Hand",
    "HandOver",
    "HandResult",
    "IllegalAction",
    "InvalidAmount",
    "InvalidCards",
    "InvalidSetup",
    "Pot",
    "PotAward",
    "Ruling",
    "SeatStack",
    "TableSetup",
    "UnknownSeat",
    "build_pots",
    "split_amount",
]
