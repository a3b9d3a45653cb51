import { vocabularySuite } from "./vocabulary-suite.ts";

vocabularySuite("1.18.33", "supergroup", true);
