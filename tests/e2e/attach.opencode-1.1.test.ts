import { attachSuite } from "./attach-suite.ts";

attachSuite("1.1.53");
