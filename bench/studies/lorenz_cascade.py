"""The Lorenz cascade through the Python module, as a user writes it (no
figure): the instructions bench/studies/cost.sh compares with the command
line's and the C++ driver's."""
import saltus

branches = [saltus.continuation(saltus.load("examples/lorenz.json"))]
for level in range(2):
    branches.append(saltus.continue_from(branches[-1], "PD1"))
print([repr(s.rho) for b in branches for s in b.special_points if s.type == "PD"])
