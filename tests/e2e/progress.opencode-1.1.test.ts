import { progressOffSuite, progressSuite } from "./progress-suite.ts";

progressSuite("1.1.53", "private");
progressOffSuite("1.1.53");
