WITH seeds, act, [] AS extraCandidates
