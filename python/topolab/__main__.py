import sys

from topolab.cli import main

sys.exit(main())
