"""The Hog contest as a standing arena: entries are events of a stream per contest (a rule set,
everyone's or one Discord server's), standings are derived from them, exactly."""
