"""The fight a caller drives (a console, a web page, a bot, a test): pull the next event or question, answer,
enter the referee's commands, undo. ``Prepared.drive`` makes one."""

from affray.drive.commands import CommandError, parse_fight_command
from affray.drive.driven import Coming, DicePrefs, Drive, DriveError, End, Input, Item
from affray.drive.questions import ROLL, AnswerError, DeclareQuestion, DieQuestion, Question, check_declaration

__all__ = ["ROLL", "AnswerError", "Coming", "CommandError", "DeclareQuestion", "DicePrefs", "DieQuestion", "Drive",
           "DriveError", "End", "Input", "Item", "Question", "check_declaration", "parse_fight_command"]
