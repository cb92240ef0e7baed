// With $trace (explain): per step, each receiver's sources, their shares, its gate and inflow.
WITH seeds, act, CASE WHEN $trace THEN {steps: trace} END AS trace, [] AS extraCandidates
