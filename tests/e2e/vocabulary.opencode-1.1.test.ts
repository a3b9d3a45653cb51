import { vocabularySuite } from "./vocabulary-suite.ts";

vocabularySuite("1.1.53", "private", false);
