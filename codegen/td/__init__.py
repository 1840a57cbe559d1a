"""The `.td` front end: loads TableGen-style files into records.

    from tilecraft.codegen.td import load_records
    rk = load_records("defs/arith.td", include_dirs=["defs"])
    for op in rk.all_derived("Op"):
        print(op.name, op["summary"], op.field_loc("summary"))

Errors in the input raise `TdError`, a `tilecraft.codegen.diagnostics.Diagnostic` whose ``str()``
shows the file, line and column, the source line and a caret.
"""

from .errors import TdError
from .printer import print_records
from .records import load_records, load_records_from_string
from .terms import Term
from .tdtypes import (ANY, BIT, DAG, INT, STRING, BitsType, ListType, RecordType, TdType)
from .values import (Code, DagValue, Field, Record, RecordKeeper, TdList, TemplateArg, Unset)

__all__ = [
    "ANY", "BIT", "BitsType", "Code", "DAG", "DagValue", "Field", "INT", "ListType", "Record",
    "RecordKeeper", "RecordType", "STRING", "TdError", "TdList", "TdType", "TemplateArg", "Term",
    "Unset", "load_records", "load_records_from_string", "print_records",
]
