"""The tasks the method is trained and scored on: benchmark data, rewards, the code sandbox, procedural tasks and evaluation (nbs/tasks/)."""
