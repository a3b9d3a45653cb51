import { firstSecondsSuite, progressSuite } from "./progress-suite.ts";

progressSuite("1.1.53", "supergroup");
firstSecondsSuite("1.1.53");
