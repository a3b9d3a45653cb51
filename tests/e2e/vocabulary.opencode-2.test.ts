import { vocabularySuite } from "./vocabulary-suite.ts";

vocabularySuite("2.0.15", "private", false);
