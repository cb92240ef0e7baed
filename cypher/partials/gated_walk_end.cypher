// The trace (explain): per step, each receiver's sources, gate value and inflow.
WITH seeds, act, CASE WHEN $trace THEN {steps: trace} END AS trace, [] AS extraCandidates
