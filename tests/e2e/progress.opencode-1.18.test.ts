import { progressOffSuite, progressSuite } from "./progress-suite.ts";

progressSuite("1.18.33", "private");
progressOffSuite("1.18.33");
