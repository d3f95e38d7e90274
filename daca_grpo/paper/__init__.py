"""The paper's experiments: the cost model, the RL protocol, the likelihood study, fast rollouts and the reproduction of its tables (nbs/paper/)."""
