import { firstSecondsSuite, progressSuite } from "./progress-suite.ts";

progressSuite("1.18.33", "supergroup");
firstSecondsSuite("1.18.33");
