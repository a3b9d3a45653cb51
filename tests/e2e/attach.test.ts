import { attachSuite } from "./attach-suite.ts";

attachSuite("1.18.33");
