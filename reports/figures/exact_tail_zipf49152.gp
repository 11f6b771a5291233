# exact_tail_zipf49152.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot exact_tail_zipf49152.gp` remakes exact_tail_zipf49152.png and exact_tail_zipf49152.svg from exact_tail_zipf49152.dat.
if (!exists("outstem")) outstem = "exact_tail_zipf49152"
set encoding utf8
set title "Exact induced over ideal probability, zipf49152" noenhanced
set xlabel "ideal probability (float64 softmax)" noenhanced
set ylabel "induced / ideal (0 = never drawn)" noenhanced
set grid back lc rgb '#dddddd'
set key top left noenhanced
set logscale x
set format x '10^{%L}'
set terminal pngcairo size 1400,760 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
unset title
set xrange [1e-07:1]
set yrange [-0.05:1.18]
set key off
set multiplot layout 2,4 title "Exact induced over ideal probability of every token shown, the synthetic 49,152-token vocabulary at T = 1 (zipf49152)" noenhanced
set xtics 100
set mxtics 10
set ylabel "induced / ideal (0 = never drawn)"
unset xlabel
set title "candle" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(4) / $3) with points ps 0.8 lc rgb '#009e73' pt 13 notitle
unset ylabel
unset xlabel
set title "numpy" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(5) / $3) with points ps 0.8 lc rgb '#56b4e9' pt 6 notitle
unset ylabel
unset xlabel
set title "torch-replacement" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(6) / $3) with points ps 0.8 lc rgb '#e69f00' pt 10 notitle
unset ylabel
unset xlabel
set title "gsl" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(7) / $3) with points ps 0.8 lc rgb '#000000' pt 8 notitle
set ylabel "induced / ideal (0 = never drawn)"
set xlabel "ideal probability (float64 softmax)"
set title "cdf" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(8) / $3) with points ps 0.8 lc rgb '#6a6a6a' pt 2 notitle
unset ylabel
set xlabel "ideal probability (float64 softmax)"
set title "alias" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(9) / $3) with points ps 0.8 lc rgb '#bdbdbd' pt 8 notitle
unset ylabel
set xlabel "ideal probability (float64 softmax)"
set title "linear" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(10) / $3) with points ps 0.8 lc rgb '#949494' pt 4 notitle
unset ylabel
set xlabel "ideal probability (float64 softmax)"
set title "llamacpp" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(11) / $3) with points ps 0.8 lc rgb '#0072b2' pt 7 notitle
unset multiplot
unset output
set terminal svg size 1400,760 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
unset title
set xrange [1e-07:1]
set yrange [-0.05:1.18]
set key off
set multiplot layout 2,4 title "Exact induced over ideal probability of every token shown, the synthetic 49,152-token vocabulary at T = 1 (zipf49152)" noenhanced
set xtics 100
set mxtics 10
set ylabel "induced / ideal (0 = never drawn)"
unset xlabel
set title "candle" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(4) / $3) with points ps 0.8 lc rgb '#009e73' pt 13 notitle
unset ylabel
unset xlabel
set title "numpy" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(5) / $3) with points ps 0.8 lc rgb '#56b4e9' pt 6 notitle
unset ylabel
unset xlabel
set title "torch-replacement" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(6) / $3) with points ps 0.8 lc rgb '#e69f00' pt 10 notitle
unset ylabel
unset xlabel
set title "gsl" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(7) / $3) with points ps 0.8 lc rgb '#000000' pt 8 notitle
set ylabel "induced / ideal (0 = never drawn)"
set xlabel "ideal probability (float64 softmax)"
set title "cdf" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(8) / $3) with points ps 0.8 lc rgb '#6a6a6a' pt 2 notitle
unset ylabel
set xlabel "ideal probability (float64 softmax)"
set title "alias" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(9) / $3) with points ps 0.8 lc rgb '#bdbdbd' pt 8 notitle
unset ylabel
set xlabel "ideal probability (float64 softmax)"
set title "linear" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(10) / $3) with points ps 0.8 lc rgb '#949494' pt 4 notitle
unset ylabel
set xlabel "ideal probability (float64 softmax)"
set title "llamacpp" noenhanced
plot 1 with lines lw 1.5 lc rgb '#000000' notitle, 'exact_tail_zipf49152.dat' using 3:(column(11) / $3) with points ps 0.8 lc rgb '#0072b2' pt 7 notitle
unset multiplot
unset output
