import { progressOffSuite, progressSuite } from "./progress-suite.ts";

progressSuite("2.0.15", "private");
progressOffSuite("2.0.15");
