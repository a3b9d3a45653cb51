import { undoSuite } from "./undo-suite.ts";

undoSuite("2.0.15");
