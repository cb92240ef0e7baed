// This file walks at most {{STEPS}} steps; a larger $steps is refused here (the server runs {{DEEP_FILE}} for it).
CALL apoc.util.validate($steps > {{STEPS}}, 'this file walks at most {{STEPS}} steps, $steps is %d: run {{DEEP_FILE}}', [$steps])
