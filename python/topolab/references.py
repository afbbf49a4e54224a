"""The papers topolab implements, and how user-facing text cites them: "Besta & Hoefler,
SC14, §V-C". The keys 000-004 are the project's shorthand for the paper files (docs/references.md
lists them); they never appear in what a user reads."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    short: str  # authors and venue, as cited in text
    full: str  # the bibliography entry

    def cite(self, section: str = "") -> str:
        return f"{self.short}, {section}" if section else self.short


REFERENCES = {
    "000": Reference(
        "Besta & Hoefler, SC14",
        "M. Besta and T. Hoefler. Slim Fly: A Cost Effective Low-Diameter Network Topology. "
        "Proceedings of the International Conference for High Performance Computing, Networking, "
        "Storage and Analysis (SC14), 2014.",
    ),
    "001": Reference(
        "Kathareios et al., SC15",
        "G. Kathareios et al. Cost-Effective Diameter-Two Topologies: Analysis and Evaluation. "
        "Proceedings of the International Conference for High Performance Computing, Networking, "
        "Storage and Analysis (SC15), 2015.",
    ),
    "002": Reference(
        "Koibuchi et al., 2018",
        "M. Koibuchi, T. Totoki, H. Matsutani, H. Amano, F. Chaix, I. Fujiwara and H. Casanova. "
        "A Case for Uni-Directional Network Topologies in Large-Scale Clusters. 2018.",
    ),
    "003": Reference(
        "Daryin & Korzh, JSFI 2014",
        "A. N. Daryin and A. A. Korzh. Early Evaluation of Direct Large-Scale InfiniBand Networks "
        "with Adaptive Routing. Supercomputing Frontiers and Innovations (JSFI), 2014. "
        "doi:10.14529/jsfi140303.",
    ),
    "004": Reference(
        "Fujiwara et al., IPDPS 2014",
        "I. Fujiwara, M. Koibuchi, H. Matsutani and H. Casanova. Skywalk: a Topology for HPC "
        "Networks with Low-delay Switches. IEEE International Parallel and Distributed Processing "
        "Symposium (IPDPS), 2014.",
    ),
}


def cite(key: str, section: str = "") -> str:
    """``cite("000", "§V-C")`` is "Besta & Hoefler, SC14, §V-C"."""
    return REFERENCES[key].cite(section)
