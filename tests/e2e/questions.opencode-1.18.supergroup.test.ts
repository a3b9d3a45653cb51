import { questionSuite } from "./question-suite.ts";

questionSuite("1.18.33", "supergroup");
