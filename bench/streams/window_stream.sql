-- net change of the window through the stream: new minus old values
SELECT sum(CASE WHEN __change_type IN ('INSERT', 'UPDATE_AFTER') THEN v ELSE -v END) AS delta FROM ws;
