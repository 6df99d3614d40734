"""The MANTYX fixture suite for Python SDKs.

::

    from mantyx_wire_conformance import Adapters, read_known_failures, run

    def test_conformance():
        adapters = Adapters(decode_sse=my_decoder, decode_event=my_event, validate=my_validate)
        run(adapters, known_failures=read_known_failures("known_failures.txt")).raise_for_failures()

The suite ships in this package (``fixtures/``) and is verified against its
manifest's sha256 values on load. ``mantyx_wire_conformance.reference`` holds
the project's own adapters (``pip install mantyx-wire-conformance[reference]``).
"""

from .known_failures import parse_known_failures, read_known_failures
from .runner import Adapters, ConformanceError, Failure, Report, TierResult, Verdict, run
from .suite import EMBEDDED_DIR, IntegrityError, Suite, SuiteError, load
from .tiers import TIERS, parse_tiers

__version__ = "2.0.0"

__all__ = [
    "Adapters", "ConformanceError", "EMBEDDED_DIR", "Failure", "IntegrityError", "Report", "Suite", "SuiteError",
    "TIERS", "TierResult", "Verdict", "load", "parse_known_failures", "parse_tiers", "read_known_failures", "run",
]
