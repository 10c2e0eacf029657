"""The Lorenz period-doubling cascade (examples/lorenz.json): the orbit at
rho = 280 followed down in rho, then at each branch's first PD the doubled
branch. Prints the PDs; writes lorenz_cascade.png into the folder given
(default results/python)."""
import sys
import matplotlib.pyplot as plt
import saltus, saltus.plot

branches = [saltus.continuation(saltus.load("examples/lorenz.json"))]
for level in range(2):
    branches.append(saltus.continue_from(branches[-1], "PD1"))
fig, ax = plt.subplots()
for b in branches:
    saltus.plot.branch(ax, b, "rho", "T")
    print(b.name, [(pd.rho, pd.T) for pd in b.special_points if pd.type == "PD"])
ax.legend()
fig.savefig((sys.argv[1] if len(sys.argv) > 1 else "results/python") + "/lorenz_cascade.png")
