// Generated from tests/e2e/matrix.ts by `npm run e2e-matrix`: change the table, not this file.
import { cell } from "./matrix.ts";
import { richListsSuite } from "./rich-lists-suite.ts";

const here = cell("2", "private");
richListsSuite(here);
