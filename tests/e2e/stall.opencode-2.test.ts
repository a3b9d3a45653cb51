// Generated from tests/e2e/matrix.ts by `npm run e2e-matrix`: change the table, not this file.
import { cell } from "./matrix.ts";
import { stallSuite } from "./stall-suite.ts";

const here = cell("2", "private");
stallSuite(here);
