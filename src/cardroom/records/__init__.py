"""Match records: one versioned JSON format for a whole Guandan match, a writer, and the referee that
replays a record through the rules core (see ``docs/records.md``)."""

from cardroom.records.files import dumps_record, loads_record, read_record, write_record
from cardroom.records.randomplay import play_random, random_match
from cardroom.records.replay import DealReport, ReplayReport, Violation, replay
from cardroom.records.schema import (
    FORMAT,
    VERSION,
    DealRecord,
    MatchRecord,
    RecordedAction,
    RecordError,
    parse_record,
)
from cardroom.records.writer import deal_actions, dealt_hands, record_of, result_of

__all__ = [
    "FORMAT",
    "VERSION",
    "DealRecord",
    "DealReport",
    "MatchRecord",
    "RecordError",
    "RecordedAction",
    "ReplayReport",
    "Violation",
    "deal_actions",
    "dealt_hands",
    "dumps_record",
    "loads_record",
    "parse_record",
    "play_random",
    "random_match",
    "read_record",
    "record_of",
    "replay",
    "result_of",
    "write_record",
]
