//! Reading and writing networks: topolab JSON, edge lists, GraphML, BookSim2 anynet.
